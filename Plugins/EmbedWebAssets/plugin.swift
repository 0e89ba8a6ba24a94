import Foundation
import PackagePlugin

/// Embeds every file under the package's `Web/` folder (the page `kanban serve` serves) into the target that uses
/// the plugin, as `WebAssets.files`, so that installing kanban is copying one file.
@main
struct EmbedWebAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "Web")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: web, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                inputs.append(url)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssets.swift")
        return [
            .buildCommand(displayName: "Embedding Web/ in \(target.name)", executable: try context.tool(named: "kanban-embed").url,
                          arguments: [web.path, output.path], inputFiles: inputs.sorted { $0.path < $1.path }, outputFiles: [output]),
        ]
    }
}
