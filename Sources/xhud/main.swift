print("xhud")
