@_exported import StateStore
