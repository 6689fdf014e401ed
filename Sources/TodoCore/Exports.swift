@_exported import SideEffects
@_exported import StateStore
