// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "kanban",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "KanbanCore", targets: ["KanbanCore"]),
        .executable(name: "kanban", targets: ["kanban"]),
    ],
    targets: [
        .target(name: "KanbanCore"),
        .executableTarget(name: "kanban", dependencies: ["KanbanCore"]),
        .executableTarget(name: "kanban-bench", dependencies: ["KanbanCore"], path: "Benchmarks/kanban-bench"),
        .testTarget(name: "KanbanCoreTests", dependencies: ["KanbanCore"]),
        .testTarget(name: "kanbanTests", dependencies: ["kanban", "KanbanCore"]),
    ]
)
