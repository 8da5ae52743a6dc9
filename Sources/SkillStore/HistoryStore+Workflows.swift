import SkillJSON

/// One workflow run as the history keeps it (docs/workflows.md).
public struct WorkflowRunRecord: Sendable, Equatable {
    public var id: String
    public var workflow: String
    /// The file it was read from.
    public var file: String
    /// The workflow file's text when the run started (a resumed run reads this, not the file).
    public var definition: String
    /// The run's input, JSON text.
    public var input: String
    /// `running`, `done`, `failed`.
    public var status: String
    public var startedMilliseconds: Int64
    public var finishedMilliseconds: Int64?

    public init(
        id: String, workflow: String, file: String, definition: String, input: String, status: String,
        startedMilliseconds: Int64, finishedMilliseconds: Int64? = nil
    ) {
        self.id = id
        self.workflow = workflow
        self.file = file
        self.definition = definition
        self.input = input
        self.status = status
        self.startedMilliseconds = startedMilliseconds
        self.finishedMilliseconds = finishedMilliseconds
    }
}

/// One step of a run: `running` (started, not known to have ended), `done`, `failed`, `skipped`.
public struct WorkflowStepRecord: Sendable, Equatable {
    public var stepID: String
    public var status: String
    public var attempts: Int
    /// The output, JSON text (done steps).
    public var output: String?
    public var error: String?
    public var startedMilliseconds: Int64?
    public var finishedMilliseconds: Int64?

    public init(
        stepID: String, status: String, attempts: Int = 0, output: String? = nil, error: String? = nil,
        startedMilliseconds: Int64? = nil, finishedMilliseconds: Int64? = nil
    ) {
        self.stepID = stepID
        self.status = status
        self.attempts = attempts
        self.output = output
        self.error = error
        self.startedMilliseconds = startedMilliseconds
        self.finishedMilliseconds = finishedMilliseconds
    }
}

extension HistoryStore {
    /// Records a new run (or, for a resumed one, marks it running again).
    public func saveWorkflowRun(_ run: WorkflowRunRecord) throws(StoreError) {
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                try database.statement("""
                    INSERT INTO workflow_runs(id, workflow, file, definition, input, status, started_ms, finished_ms)
                    VALUES(?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET status = excluded.status, finished_ms = excluded.finished_ms
                    """).run([
                    .text(run.id), .text(run.workflow), .text(run.file), .text(run.definition), .text(run.input), .text(run.status),
                    .integer(run.startedMilliseconds), run.finishedMilliseconds.map(SQLValue.integer) ?? .null,
                ])
            }
        }
    }

    /// Writes one step's state; committed before this returns (a step marked `running` is known to have
    /// started, whatever happens to the process next).
    public func saveWorkflowStep(_ step: WorkflowStepRecord, run runID: String) throws(StoreError) {
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                try database.statement("""
                    INSERT OR REPLACE INTO workflow_steps(run_id, step_id, status, attempts, output, error, started_ms, finished_ms)
                    VALUES(?, ?, ?, ?, ?, ?, ?, ?)
                    """).run([
                    .text(runID), .text(step.stepID), .text(step.status), .integer(Int64(step.attempts)),
                    .optional(step.output), .optional(step.error), step.startedMilliseconds.map(SQLValue.integer) ?? .null,
                    step.finishedMilliseconds.map(SQLValue.integer) ?? .null,
                ])
            }
        }
    }

    /// Run `id`, or nil.
    public func workflowRun(id: String) throws(StoreError) -> WorkflowRunRecord? {
        try workflowRuns(where: "WHERE id = ?", [.text(id)], limit: 1).first
    }

    /// Runs, newest first.
    public func workflowRuns(limit: Int = 50) throws(StoreError) -> [WorkflowRunRecord] {
        try workflowRuns(where: "", [], limit: limit)
    }

    func workflowRuns(where clause: String, _ values: [SQLValue], limit: Int) throws(StoreError) -> [WorkflowRunRecord] {
        try reading { database throws(StoreError) in
            try database.statement("""
                SELECT id, workflow, file, definition, input, status, started_ms, finished_ms FROM workflow_runs \(clause)
                ORDER BY started_ms DESC, rowid DESC LIMIT ?
                """).rows(values + [.integer(Int64(limit))]).map { row in
                WorkflowRunRecord(
                    id: row[0].text ?? "", workflow: row[1].text ?? "", file: row[2].text ?? "", definition: row[3].text ?? "",
                    input: row[4].text ?? "{}", status: row[5].text ?? "", startedMilliseconds: row[6].integer ?? 0,
                    finishedMilliseconds: row[7].integer)
            }
        }
    }

    /// The steps of run `runID` that have a state.
    public func workflowSteps(run runID: String) throws(StoreError) -> [WorkflowStepRecord] {
        try reading { database throws(StoreError) in
            try database.statement("""
                SELECT step_id, status, attempts, output, error, started_ms, finished_ms FROM workflow_steps WHERE run_id = ?
                ORDER BY started_ms, step_id
                """).rows([.text(runID)]).map { row in
                WorkflowStepRecord(
                    stepID: row[0].text ?? "", status: row[1].text ?? "", attempts: Int(row[2].integer ?? 0), output: row[3].text,
                    error: row[4].text, startedMilliseconds: row[5].integer, finishedMilliseconds: row[6].integer)
            }
        }
    }
}

/// A workflow's schedule (`skillhost workflow schedule NAME 'CRON'`).
public struct WorkflowScheduleRecord: Sendable, Equatable {
    public var name: String
    public var cron: String
    /// The input of its runs, JSON text.
    public var input: String
    public var createdMilliseconds: Int64

    public init(name: String, cron: String, input: String, createdMilliseconds: Int64) {
        self.name = name
        self.cron = cron
        self.input = input
        self.createdMilliseconds = createdMilliseconds
    }
}

extension HistoryStore {
    /// Records (or replaces) the schedule of workflow `schedule.name`.
    public func saveWorkflowSchedule(_ schedule: WorkflowScheduleRecord) throws(StoreError) {
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                try database.statement("INSERT OR REPLACE INTO workflow_schedules(name, cron, input, created_ms) VALUES(?, ?, ?, ?)")
                    .run([.text(schedule.name), .text(schedule.cron), .text(schedule.input), .integer(schedule.createdMilliseconds)])
            }
        }
    }

    /// Removes the schedule of `name`; whether there was one.
    @discardableResult
    public func removeWorkflowSchedule(name: String) throws(StoreError) -> Bool {
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                try database.statement("DELETE FROM workflow_schedules WHERE name = ?").run([.text(name)])
                return database.changes > 0
            }
        }
    }

    /// Every schedule, by name.
    public func workflowSchedules() throws(StoreError) -> [WorkflowScheduleRecord] {
        try reading { database throws(StoreError) in
            try database.statement("SELECT name, cron, input, created_ms FROM workflow_schedules ORDER BY name").rows().map { row in
                WorkflowScheduleRecord(name: row[0].text ?? "", cron: row[1].text ?? "", input: row[2].text ?? "{}", createdMilliseconds: row[3].integer ?? 0)
            }
        }
    }

    /// Claims the scheduled instant `instant` of `name` for run `runID`: true for the first claim only, so
    /// each instant starts one run however often (and however many at once) `workflow due` is called.
    public func claimScheduledInstant(name: String, instant: Int64, runID: String) throws(StoreError) -> Bool {
        try withDatabase { database throws(StoreError) in
            try database.write { () throws(StoreError) in
                try database.statement("INSERT OR IGNORE INTO workflow_schedule_runs(name, instant_ms, run_id) VALUES(?, ?, ?)")
                    .run([.text(name), .integer(instant), .text(runID)])
                return database.changes > 0
            }
        }
    }
}
