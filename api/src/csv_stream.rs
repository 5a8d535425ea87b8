//! CSV downloads that stream: a task reads rows one at a time (a database cursor through sqlx's `fetch`) and hands
//! the response body 32 KB chunks through a channel of eight, so the api holds at most a few hundred KB whatever
//! the file's size. A reader that goes away stops the task; an error mid-file ends the body with an error, so the
//! client sees a failed download rather than a short file that looks complete.

use poem::Body;
use std::future::Future;
use tokio::sync::mpsc;

const CHUNK: usize = 32 * 1024;

type Chunk = Result<Vec<u8>, std::io::Error>;

fn writer() -> csv::Writer<Vec<u8>> {
    csv::Writer::from_writer(Vec::with_capacity(CHUNK + 1024))
}

/// Where the producing task writes rows.
pub struct Rows {
    out: csv::Writer<Vec<u8>>,
    sender: mpsc::Sender<Chunk>,
}

impl Rows {
    /// Writes one record; false when the reader has gone away (stop reading rows then).
    pub async fn row<T: AsRef<[u8]>>(&mut self, cells: &[T]) -> bool {
        if let Err(e) = self.out.write_record(cells) {
            let _ = self.sender.send(Err(std::io::Error::other(e))).await;
            return false;
        }
        if self.out.get_ref().len() >= CHUNK {
            return self.flush().await;
        }
        true
    }

    async fn flush(&mut self) -> bool {
        let full = std::mem::replace(&mut self.out, writer());
        let chunk = match full.into_inner() {
            Ok(chunk) => chunk,
            Err(e) => {
                let _ = self.sender.send(Err(e.into_error())).await;
                return false;
            }
        };
        chunk.is_empty() || self.sender.send(Ok(chunk)).await.is_ok()
    }
}

/// A body that is `header` and then whatever `produce` writes. `produce` runs on a task of its own and hands the
/// rows back when done; its error is logged and ends the body with an error.
pub fn body<const N: usize, F, Fut, E>(header: [&str; N], produce: F) -> Body
where
    F: FnOnce(Rows) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Rows, E>> + Send,
    E: std::error::Error + Send + Sync + 'static,
{
    let (sender, receiver) = mpsc::channel::<Chunk>(8);
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    tokio::spawn(async move {
        let failed = sender.clone();
        let mut rows = Rows {
            out: writer(),
            sender,
        };
        if !rows.row(&header).await {
            return;
        }
        match produce(rows).await {
            Ok(mut rows) => {
                rows.flush().await;
            }
            Err(e) => {
                tracing::error!(error = %telemetry::Chain(&e), "csv export failed");
                let _ = failed.send(Err(std::io::Error::other(e))).await;
            }
        }
    });
    Body::from_bytes_stream(futures_util::stream::unfold(
        receiver,
        |mut receiver| async move { receiver.recv().await.map(|chunk| (chunk, receiver)) },
    ))
}

/// A streamed text body that the API document describes as a string (as `PlainText` would), so the generated
/// client reads it as text.
pub struct StreamedText(pub Body);

impl poem_openapi::payload::Payload for StreamedText {
    const CONTENT_TYPE: &'static str = "text/csv; charset=utf-8";

    fn schema_ref() -> poem_openapi::registry::MetaSchemaRef {
        <String as poem_openapi::types::Type>::schema_ref()
    }
}

impl poem::IntoResponse for StreamedText {
    fn into_response(self) -> poem::Response {
        poem::Response::builder()
            .content_type(<Self as poem_openapi::payload::Payload>::CONTENT_TYPE)
            .body(self.0)
    }
}

pub use store::cells::neutralise_formula;
