//! `api` — serves Compass, and the operator's commands (migrate, clients, users, openapi, demo).

use api::accounts::{upsert_universal_user, NewUniversalUser};
use api::{Application, Settings};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use tenancy::{ClientShort, Tenancy};

#[derive(Debug, Parser)]
#[command(name = "api", about = "Compass api server and admin commands")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Migrate every schema, then serve (the default).
    Serve(Settings),
    /// Bring `public` and every client's schema up to date (a few schemas at a time; a schema that fails is
    /// named, the others are still migrated, and the command exits non-zero).
    Migrate {
        /// A folder of extra tenant migrations to apply with the built-in ones: a rehearsal or benchmark of a new
        /// migration without a rebuild. Every later start must know them too.
        #[arg(long, env = "TENANT_MIGRATIONS_EXTRA")]
        extra_tenant_migrations: Option<PathBuf>,
        #[command(flatten)]
        settings: Settings,
    },
    /// Manage clients.
    Clients {
        #[command(subcommand)]
        command: ClientsCommand,
    },
    /// Manage universal users.
    Users {
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Write the OpenAPI document.
    Openapi {
        /// File to write; standard output when absent.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Create and fill the demo client (idempotent).
    Demo {
        #[arg(long, default_value = "demo")]
        short: String,
        #[arg(long, default_value = "Demo for Congress")]
        name: String,
        #[arg(long, default_value_t = 25_000)]
        contacts: i64,
        /// About this many contributions, over three years and this one so far.
        #[arg(long, default_value_t = 200_000)]
        gifts: i64,
        #[command(flatten)]
        settings: Settings,
    },
}

#[derive(Debug, Subcommand)]
enum ClientsCommand {
    /// Register a client and create its schema (a spare renamed, when one is ready).
    Create {
        #[arg(long)]
        short: String,
        #[arg(long)]
        name: String,
        #[command(flatten)]
        settings: Settings,
    },
    /// List clients.
    List(Settings),
    /// Make spare client schemas until COUNT are ready (the worker keeps SPARE_SCHEMAS ready by itself).
    PrepareSpares {
        #[arg(long, default_value_t = tenancy::DEFAULT_SPARE_SCHEMAS)]
        count: usize,
        #[command(flatten)]
        settings: Settings,
    },
}

#[derive(Debug, Subcommand)]
enum UsersCommand {
    /// Create or update a universal user (password hashed with argon2id).
    Create {
        #[arg(long)]
        email: String,
        #[arg(long, env = "COMPASS_USER_PASSWORD", hide_env_values = true)]
        password: telemetry::secret::Secret,
        #[arg(long, default_value = "")]
        first: String,
        #[arg(long, default_value = "")]
        last: String,
        /// May use every client and holds every permission.
        #[arg(long)]
        admin: bool,
        /// Short name of a client this user may use (repeatable).
        #[arg(long = "client")]
        clients: Vec<String>,
        #[command(flatten)]
        settings: Settings,
    },
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    telemetry::init_tracing();
    let cli = Cli::parse();
    let command = match cli.command {
        Some(c) => c,
        // Bare `api` serves, configured from the environment.
        None => match Cli::parse_from(["api", "serve"]).command {
            Some(c) => c,
            None => return Ok(()),
        },
    };
    match command {
        Command::Serve(settings) => {
            let app = Application::build(settings).await?;
            app.run_until(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        }
        Command::Migrate {
            extra_tenant_migrations,
            settings,
        } => {
            let mut tenancy = connect(&settings).await?;
            if let Some(dir) = extra_tenant_migrations {
                tenancy.add_tenant_migrations(&dir).await?;
            }
            let report = tenancy.migrate_all().await?;
            println!(
                "migrated: {} of {} client schemas had migrations pending",
                report.migrated.len(),
                report.schemas
            );
        }
        Command::Clients { command } => match command {
            ClientsCommand::Create {
                short,
                name,
                settings,
            } => {
                let tenancy = connect(&settings).await?;
                // The new schema gets every tenant migration as it is made; the others are `api migrate`'s.
                tenancy.migrate_public().await?;
                let client = tenancy
                    .create_client(&ClientShort::parse(&short)?, &name)
                    .await?;
                println!(
                    "created client {} ({}) id={} schema={}",
                    client.short_name, client.name, client.id, client.schema_name
                );
            }
            ClientsCommand::PrepareSpares { count, settings } => {
                let tenancy = connect(&settings).await?;
                tenancy.migrate_public().await?;
                let made = tenancy.top_up_spares(count).await?;
                println!("{made} spare schema(s) made; {count} ready");
            }
            ClientsCommand::List(settings) => {
                for c in connect(&settings).await?.list_clients().await? {
                    println!(
                        "{}\t{}\t{}\t{}",
                        c.id,
                        c.short_name,
                        c.name,
                        if c.enabled { "enabled" } else { "disabled" }
                    );
                }
            }
        },
        Command::Users { command } => match command {
            UsersCommand::Create {
                email,
                password,
                first,
                last,
                admin,
                clients,
                settings,
            } => {
                let tenancy = connect(&settings).await?;
                tenancy.migrate_all().await?;
                let user = NewUniversalUser {
                    email,
                    password: password.expose().to_owned(),
                    first_name: first,
                    last_name: last,
                    admin,
                    clients,
                };
                let id = upsert_universal_user(&tenancy, &user).await?;
                println!(
                    "universal user {} id={id}",
                    user.email.trim().to_lowercase()
                );
            }
        },
        Command::Openapi { out } => {
            let json = api::routes::spec_json();
            match out {
                Some(path) => std::fs::write(path, json + "\n")?,
                None => println!("{json}"),
            }
        }
        Command::Demo {
            short,
            name,
            contacts,
            gifts,
            settings,
        } => {
            let tenancy = connect(&settings).await?;
            tenancy.migrate_all().await?;
            let queue = jobs::JobQueue::connect(&settings.redis_url, &settings.job_queue).await?;
            let client = api::demo::seed(&tenancy, &queue, &short, &name, contacts, gifts).await?;
            println!(
                "demo client {} ({}) id={}",
                client.short_name, client.name, client.id
            );
        }
    }
    Ok(())
}

/// Enough connections for the migrations' parallel schemas.
async fn connect(settings: &Settings) -> Result<Tenancy, tenancy::TenancyError> {
    let connections = u32::try_from(tenancy::PARALLEL_SCHEMAS).unwrap_or(4) + 1;
    Tenancy::connect(&settings.database_url, connections).await
}
