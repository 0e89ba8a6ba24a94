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
        // Child processes (git, hooks, `kanban watch --exec` commands), kept out of KanbanCore, which spawns none.
        .target(name: "KanbanSubprocess", dependencies: ["KanbanCore"]),
        .target(name: "KanbanWatch", dependencies: ["KanbanCore"]),
        .target(name: "KanbanGit", dependencies: ["KanbanCore", "KanbanSubprocess"]),
        // The servers every surface but the terminal goes through: HTTP and the page's app (`kanban serve`), MCP
        // (`kanban mcp`), the JSON shapes and the HTML report; built on the board session, not on a command line.
        .target(name: "KanbanServer", dependencies: ["KanbanCore", "KanbanWatch", "KanbanGit"], plugins: ["EmbedWebAssets"]),
        .executableTarget(name: "kanban", dependencies: ["KanbanCore", "KanbanWatch", "KanbanGit", "KanbanSubprocess", "KanbanServer"]),
        // The page `kanban serve` serves (Web/) embedded in KanbanServer at build time.
        .plugin(name: "EmbedWebAssets", capability: .buildTool(), dependencies: ["kanban-embed"], path: "Plugins/EmbedWebAssets"),
        .executableTarget(name: "kanban-embed", path: "Tools/kanban-embed"),
        .executableTarget(name: "kanban-bench", dependencies: ["KanbanCore", "KanbanWatch"], path: "Benchmarks/kanban-bench"),
        // The adversaries that attack the guarantees (crash, stress, converge); they drive the kanban binary only.
        .executableTarget(name: "kanban-harness", path: "Harness/kanban-harness"),
        // What the test targets share: the seeded generator, executable scripts, waiting on a condition.
        .target(name: "KanbanTestSupport", dependencies: ["KanbanCore"], path: "Tests/KanbanTestSupport"),
        .testTarget(name: "KanbanCoreTests", dependencies: ["KanbanCore", "KanbanTestSupport"]),
        .testTarget(name: "KanbanGitTests", dependencies: ["KanbanGit", "KanbanCore", "KanbanSubprocess", "KanbanTestSupport"]),
        .testTarget(name: "KanbanWatchTests", dependencies: ["KanbanWatch", "KanbanCore", "KanbanTestSupport"]),
        .testTarget(name: "KanbanServerTests", dependencies: ["KanbanServer", "KanbanCore", "KanbanGit", "KanbanTestSupport"]),
        .testTarget(name: "kanbanTests", dependencies: ["kanban", "KanbanCore", "KanbanWatch", "KanbanGit", "KanbanServer", "KanbanTestSupport"]),
    ]
)
