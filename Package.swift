// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "kanban",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "KanbanCore", targets: ["KanbanCore"]),
        .library(name: "KanbanWatch", targets: ["KanbanWatch"]),
        // The git sync provider: an app that syncs another way need not link it.
        .library(name: "KanbanGit", targets: ["KanbanGit"]),
        .executable(name: "kanban", targets: ["kanban"]),
    ],
    targets: [
        .target(name: "KanbanCore"),
        // Child processes (git, hooks, kanban itself), kept out of KanbanCore, which spawns none.
        .target(name: "KanbanSubprocess", dependencies: ["KanbanCore"]),
        .target(name: "KanbanWatch", dependencies: ["KanbanCore", "KanbanSubprocess"]),
        .target(name: "KanbanGit", dependencies: ["KanbanCore", "KanbanSubprocess"]),
        .executableTarget(name: "kanban", dependencies: ["KanbanCore", "KanbanWatch", "KanbanGit", "KanbanSubprocess"], plugins: ["EmbedWebAssets"]),
        // The page `kanban serve` serves (Web/) embedded in the kanban binary at build time.
        .plugin(name: "EmbedWebAssets", capability: .buildTool(), dependencies: ["kanban-embed"], path: "Plugins/EmbedWebAssets"),
        .executableTarget(name: "kanban-embed", path: "Tools/kanban-embed"),
        .executableTarget(name: "kanban-bench", dependencies: ["KanbanCore", "KanbanWatch"], path: "Benchmarks/kanban-bench"),
        // The adversaries that attack the guarantees (crash, stress, converge); they drive the kanban binary only.
        .executableTarget(name: "kanban-harness", path: "Harness/kanban-harness"),
        .testTarget(name: "KanbanCoreTests", dependencies: ["KanbanCore"]),
        .testTarget(name: "KanbanGitTests", dependencies: ["KanbanGit", "KanbanCore", "KanbanSubprocess"]),
        .testTarget(name: "KanbanWatchTests", dependencies: ["KanbanWatch", "KanbanCore"]),
        .testTarget(name: "kanbanTests", dependencies: ["kanban", "KanbanCore", "KanbanWatch", "KanbanGit"]),
    ]
)
