import TodoCore
