import MockBackend

/// Waiting for whichever comes first: Ctrl-C/TERM or `POST /__spotcheck/shutdown`.
enum StopSignal {
    static func wait(_ request: ShutdownRequest, _ interrupt: InterruptSignal) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await interrupt.wait() }
            group.addTask { await request.wait() }
            await group.next()
            group.cancelAll()
        }
    }
}
