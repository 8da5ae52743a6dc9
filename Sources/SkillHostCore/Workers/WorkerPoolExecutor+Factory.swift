extension WorkerPoolExecutor {
    /// The ``ExecutorFactory`` maker for `isolation: process`: a pool with the plugin's registry settings
    /// (`max_workers`, `limits`), the host's `skillhost` as the worker, and crash history in the cache
    /// folder's ``PluginHealthStore``. Use as `ExecutorFactory(process: WorkerPoolExecutor.maker)`.
    public static let maker: ExecutorFactory.Maker = { request throws(HostError) in
        var configuration = WorkerPoolConfiguration(
            pluginID: request.plugin.id, pluginPath: request.plugin.path,
            workerExecutable: request.helperExecutable, maxWorkers: request.plugin.settings.maxWorkers,
            limits: request.plugin.settings.limits, healthStore: PluginHealthStore(cacheDirectory: request.paths.cache))
        configuration.sandbox = SandboxPolicy.resolve(
            plugin: request.plugin, paths: request.paths, home: HostPaths.homeDirectory)
        configuration.sandbox?.createMissingWritableFolders()
        let data = request.paths.dataDirectory(forPlugin: request.plugin.id)
        configuration.environment = WorkerEnvironment.merged(
            WorkerEnvironment.base(),
            WorkerEnvironment.plugin(dataDirectory: data, granted: request.plugin.settings.grantedEnvironment))
        try? Posix.makeDirectories(WorkerEnvironment.temporaryFolder(dataDirectory: data))
        configuration.output = request.output
        configuration.prestart = request.workerPrestart
        return WorkerPoolExecutor(configuration)
    }
}
