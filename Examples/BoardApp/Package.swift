// swift-tools-version:6.0
import PackageDescription

// An app's view of kanban: it depends on the library products only, by path here, by URL in a real app.
let package = Package(
    name: "BoardApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(name: "kanban", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "BoardApp", dependencies: [
            .product(name: "KanbanCore", package: "kanban"),
            .product(name: "KanbanWatch", package: "kanban"),
            .product(name: "KanbanGit", package: "kanban"),
        ]),
    ]
)
