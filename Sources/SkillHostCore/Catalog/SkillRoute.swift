import JSONSchema
import Synchronization

/// What a call of one skill needs from one catalog build, found with one look-up of the skill's id
/// (``ProcessCatalogCache/Snapshot/route(_:)``): the skill, its plugin, the plugin file's status when the
/// catalog was built, and what the first call under this build found (the compiled parameters schema, the
/// plugin's executor, its data folder), so later calls skip those look-ups (each hashed a path) and the
/// copies of the records they made. A new build makes new routes: nothing here outlives the files it was
/// found for.
final class SkillRoute: Sendable {
    let skill: SkillDescription
    let plugin: PluginRecord
    /// The plugin file's status in the build.
    let stamp: CatalogInputs.Stamp?
    /// The parameters schema, once compiled under this build.
    let schema = Mutex<Schema?>(nil)
    /// The plugin's executor for this build's file, with the host's executor generation when it was found
    /// (a replaced executor bumps it, and the route then asks the host again).
    let executor = Mutex<(executor: any PluginExecutor, generation: Int)?>(nil)
    /// The plugin's data folder, once made.
    let dataDirectory = Mutex<String?>(nil)

    init(skill: SkillDescription, plugin: PluginRecord, stamp: CatalogInputs.Stamp?) {
        self.skill = skill
        self.plugin = plugin
        self.stamp = stamp
    }
}
