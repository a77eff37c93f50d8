import SADEHealth
