//! `harness serve`: the web board and its JSON API on 127.0.0.1.

use crate::cli::ServeArgs;
use crate::web::server;
use anyhow::Context;
use std::io::Write;

/// Serves until Ctrl-C. Prints `serving on http://127.0.0.1:PORT/` (the real port when
/// `--port 0`) on stdout once listening.
///
/// # Errors
/// When the port cannot be bound or the server fails.
pub fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async {
        let listener = server::bind(args.port)
            .await
            .with_context(|| format!("binding 127.0.0.1:{}", args.port))?;
        let addr = listener.local_addr()?;
        println!("serving on http://{addr}/ (Ctrl-C stops)");
        std::io::stdout().flush()?;
        server::serve(listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving")
    })
}
