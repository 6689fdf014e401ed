print("store-bench: not built yet")
