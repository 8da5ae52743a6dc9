/// How a worker process ended: the one process-ending type (``Posix/Termination``, reaped by ``Posix``), whose
/// `description` is the one wording ("signal 11 (SIGSEGV, Segmentation fault)" or "exit status 3").
package typealias WorkerExit = Posix.Termination
