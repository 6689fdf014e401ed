@_exported import ActionLog
@_exported import StateStore
