//! `attnscope classroom`: one laptop serves the room. The built page and its model files go
//! to every phone from here (each downloaded once by the laptop), and a class is relayed over
//! WebSocket: the teacher's page leads, the students' pages follow (`attnscope::classroom`
//! holds the rules; `server.rs` carries them).

use attnscope::Error;
use clap::Args;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;

mod server;

use server::{serve, Limits};

#[derive(Args)]
pub struct ClassroomArgs {
    /// The built page (trunk's dist/, which holds the models too): `scripts/serve.sh` or
    /// `trunk build --release` makes it.
    #[arg(long, value_name = "DIR", default_value = "dist")]
    dist: PathBuf,
    /// The port to listen on.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on (default 127.0.0.1: this machine only).
    #[arg(long, conflicts_with = "lan")]
    bind: Option<IpAddr>,
    /// Listen on this machine's address in the local network, so that phones in the room reach
    /// it (the address chosen is printed).
    #[arg(long)]
    lan: bool,
    /// Open class connections at most (tests lower it).
    #[arg(long, default_value_t = Limits::default().connections, hide = true)]
    max_connections: usize,
}

pub fn classroom(args: ClassroomArgs) -> Result<(), Error> {
    if !args.dist.join("index.html").is_file() {
        return Err(Error::Invalid(format!(
            "no built page in {}: build it first (`scripts/serve.sh` or `trunk build --release`), \
             or pass --dist",
            args.dist.display()
        )));
    }
    let ip = match (args.bind, args.lan) {
        (Some(ip), _) => ip,
        (None, true) => lan_address()?,
        (None, false) => IpAddr::V4(Ipv4Addr::LOCALHOST),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start the server: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(ip, args.port))
            .await
            .map_err(|e| Error::Invalid(format!("cannot listen on {ip}:{}: {e}", args.port)))?;
        let address = listener.local_addr().map_err(|e| Error::Invalid(e.to_string()))?;
        let url = format!("http://{address}/");
        // Printed as lines that may go nowhere (a closed pipe must not stop the class).
        let mut out = std::io::stdout();
        let note = if args.lan {
            "(the local network's address of this machine; --bind picks another)"
        } else if ip.is_loopback() {
            "(this machine only: --lan lets phones in the room join)"
        } else {
            ""
        };
        let _ = writeln!(out, "attnscope classroom: serving {} on {url}", args.dist.display());
        let _ = writeln!(out, "{note}");
        let _ = writeln!(
            out,
            "Open it, press “Hold a class…” and “Start a class”; students scan the code it shows."
        );
        let _ = writeln!(out, "{}", server::terminal_qr(&url));
        let _ = out.flush();
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        let limits = Limits { connections: args.max_connections, ..Limits::default() };
        serve(listener, args.dist, url, limits, stop)
            .await
            .map_err(|e| Error::Invalid(format!("the server stopped: {e}")))
    })
}

/// The address this machine reaches the local network from: the route to a documentation
/// address (RFC 5737; a UDP "connect" sends nothing), as the system chose it.
fn lan_address() -> Result<IpAddr, Error> {
    let socket = UdpSocket::bind("0.0.0.0:0").and_then(|s| s.connect("192.0.2.1:9").map(|_| s));
    let ip = socket.and_then(|s| s.local_addr()).map(|a| a.ip());
    match ip {
        Ok(ip) if !ip.is_unspecified() && !ip.is_loopback() => Ok(ip),
        _ => Err(Error::Invalid(
            "found no local network on this machine: connect to the room's network, or pass \
             --bind ADDRESS"
                .into(),
        )),
    }
}
