import SADENet
