// The shared test helpers (Tests/SkillTestSupport), visible in every file of this test target under the
// names the tests already use (HostTestSupport, HostilePlugins, TestPackage, TestProcess, FuzzCorpus, …).
@_exported import SkillTestSupport
