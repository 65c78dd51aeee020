import HUDCore
