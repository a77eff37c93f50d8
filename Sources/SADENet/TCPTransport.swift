import SADECore
