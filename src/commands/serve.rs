//! `harness serve`: the web board and its JSON API on 127.0.0.1.

use crate::cli::ServeArgs;
use crate::web::server::{self, Gate, Limits};
use anyhow::Context;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// Serves until Ctrl-C or SIGTERM. Prints `serving on http://127.0.0.1:PORT/` (the real port when
/// `--port 0`) on stdout once listening, with the solve limits of [`Limits::default`]. The first
/// signal shuts down (solves in flight are cancelled; see [`server::serve_with`]); a second one
/// exits at once with status 130.
///
/// # Errors
/// When the port cannot be bound or the server fails.
pub fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    let limits = Limits::default();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Solve work is gated to `solve_slots` at a time; the rest (candidates) is short.
        .max_blocking_threads(limits.solve_slots + 16)
        .build()
        .context("starting the async runtime")?;
    let stop = Arc::new(tokio::sync::Notify::new());
    let _signals = {
        let stop = stop.clone();
        crate::plumbing::interrupt::on_signal(move || {
            errln!(
                "\nstopping: cancelling the solves in flight and closing connections \
                 (interrupt again to quit at once)"
            );
            stop.notify_one();
        })
    };
    let result = rt.block_on(async {
        let listener = server::bind(args.port)
            .await
            .with_context(|| format!("binding 127.0.0.1:{}", args.port))?;
        let addr = listener.local_addr()?;
        outln!(
            "serving on http://{addr}/ (Ctrl-C stops; {} solves at once, {} more queued, {} \
             connections)",
            limits.solve_slots,
            limits.queue,
            limits.max_connections
        )?;
        std::io::stdout().flush()?;
        let gate = Arc::new(Gate::new(limits));
        server::serve_with(listener, gate, async move { stop.notified().await })
            .await
            .context("serving")
    });
    // Work that ignores cancellation (a puzzle being generated) is not waited for long.
    rt.shutdown_timeout(Duration::from_secs(1));
    result
}
