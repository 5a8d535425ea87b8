//! The bounce listener: receives bounce messages and feedback reports sent to the VERP addresses of mailing
//! copies (`bounces+<token>@<bounce domain>`) and records what they say. Point the bounce domains' MX at it.

use clap::Parser;
use std::sync::Arc;

#[derive(Parser)]
#[command(
    name = "bounce-listener",
    about = "Hears bounces and complaints sent back by mail"
)]
struct Args {
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/compass"
    )]
    database_url: String,
    /// Key that signs VERP bounce addresses: the worker's BOUNCE_SECRET. The listener needs no other key.
    #[arg(long, env = "BOUNCE_SECRET", hide_env_values = true)]
    bounce_secret: telemetry::secret::Secret,
    /// Address to listen on (port 25 in production, behind the bounce domains' MX).
    #[arg(long, env = "BOUNCE_LISTEN", default_value = "127.0.0.1:2525")]
    listen: String,
    /// The name the listener greets with.
    #[arg(long, env = "BOUNCE_HOSTNAME", default_value = "compass-bounces")]
    hostname: String,
    /// Largest message accepted, in bytes.
    #[arg(long, env = "BOUNCE_MAX_MESSAGE_BYTES", default_value_t = 10 * 1024 * 1024)]
    max_message_bytes: usize,
    #[arg(long, env = "BOUNCE_DB_CONNECTIONS", default_value_t = 8)]
    db_connections: u32,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    telemetry::init_tracing();
    let args = Args::parse();
    if args.bounce_secret.is_empty() {
        return Err("BOUNCE_SECRET is empty".into());
    }
    let tenancy = tenancy::Tenancy::connect(&args.database_url, args.db_connections.max(1)).await?;
    let socket = tokio::net::TcpListener::bind(&args.listen).await?;
    tracing::info!(addr = %args.listen, "bounce listener listening");
    let listener = Arc::new(inbound::Listener::new(
        tenancy,
        mail::verp::VerpSigner::new(args.bounce_secret.expose()),
        inbound::Limits {
            max_message_bytes: args.max_message_bytes.max(1024),
            ..Default::default()
        },
        args.hostname,
    ));
    tokio::select! {
        _ = inbound::serve(socket, listener) => {}
        _ = tokio::signal::ctrl_c() => tracing::info!("bounce listener stopping"),
    }
    Ok(())
}
