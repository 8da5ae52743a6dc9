/// Every subcommand, in the order `--help` lists them. Add a command by adding one line here.
enum CommandTable {
    /// Immutable after start-up; metatypes of stateless command enums are safe to share.
    nonisolated(unsafe) static let all: [any Command.Type] = [
        // commands
        ListCommand.self,
        InspectCommand.self,
        EnableCommand.self,
        DisableCommand.self,
        CallCommand.self,
        ChatCommand.self,
        ValidateCommand.self,
        RescanCommand.self,
        ScanCommand.self,
        TrustCommand.self,
        UntrustCommand.self,
        SchemaCommand.self,
        WorkerCommand.self,
        BenchDispatchCommand.self,
        NewCommand.self,
        SDKCommand.self,
        PackCommand.self,
        KeysCommand.self,
        InstallCommand.self,
        AddCommand.self,
        AddMCPCommand.self,
        ImportMCPCommand.self,
        RemoveCommand.self,
        MCPCommand.self,
        UICommand.self,
        TokenCommand.self,
        HistoryCommand.self,
        TraceCommand.self,
        DebugCommand.self,
        BenchHistoryCommand.self,
        GrantCommand.self,
        SetCommand.self,
        BenchSandboxCommand.self,
        WorkflowCommand.self,
    ]

    /// The command named `name`, if there is one.
    static func command(named name: String) -> (any Command.Type)? {
        all.first { $0.name == name }
    }
}
