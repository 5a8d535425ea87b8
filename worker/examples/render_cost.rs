#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::time::Instant;
use worker::mail::links::{LinkSigner, Recipient};
use worker::mail::{merge, MergeValues, Outgoing};

fn main() {
    let n = 20_000;
    let links = LinkSigner::new("secret", "http://127.0.0.1:8080");
    let body = "<h1>This month on the campaign</h1><p>Hi {{First.Name}},</p><p>Here is what your support made possible.</p><p><a href=\"https://example.org/donate\">Chip in $10</a></p>";
    let t = Instant::now();
    let mut outs = Vec::new();
    for i in 0..n {
        let r = Recipient {
            client_id: 1,
            mailing_id: 1,
            contact_id: i,
        };
        let v = MergeValues {
            first_name: "Maria".into(),
            email: format!("person{i}@example.org"),
        };
        outs.push(Outgoing {
            from_name: "Friends".into(),
            from_address: "team@campaign.example.org".into(),
            reply_to: None,
            to: v.email.clone(),
            subject: merge("What your support made possible", &v),
            html: links.instrument(&merge(body, &v), r),
            unsubscribe_url: Some(links.unsubscribe_url(r)),
        });
    }
    let render = t.elapsed();
    let t = Instant::now();
    let msgs: Vec<_> = outs.iter().map(|o| o.build().unwrap()).collect();
    let build = t.elapsed();
    let t = Instant::now();
    let mut total = 0;
    for m in &msgs {
        total += m.formatted().len();
    }
    let fmt = t.elapsed();
    println!(
        "per message: render {:.1} us, build {:.1} us, format {:.1} us ({} bytes avg)",
        render.as_secs_f64() * 1e6 / n as f64,
        build.as_secs_f64() * 1e6 / n as f64,
        fmt.as_secs_f64() * 1e6 / n as f64,
        total / n as usize
    );
}
