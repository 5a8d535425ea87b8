//! The demo client (`api demo`): realistic contacts, origin codes, lists, forms, people and mailings, made
//! set-based in SQL. The api decides what to create and in what order; each function here writes one part.

pub mod experiment;
pub mod giving;
pub mod journeys;
pub mod media;
pub mod programme;

use sqlx::PgConnection;

/// Refreshes the planner's statistics of tables the seed just filled. The seed is one transaction, and until
/// autovacuum sees its commit the planner takes a table filled by it for an empty one: the next statement and the
/// rollup triggers then join hundreds of thousands of rows by nested loops (a 1,000,000-contact seed sat for over
/// 20 minutes on one insert of events). ANALYZE counts the rows of its own transaction, so each bulk step is
/// planned for the rows that are really there. `tables` is always a literal from the code, never input.
pub async fn analyze(conn: &mut PgConnection, tables: &'static str) -> Result<(), sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!("analyze {tables}")))
        .execute(conn)
        .await?;
    Ok(())
}

/// How many contacts the client has: the demo is filled only while it has none.
pub async fn contacts_count(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from contacts")
        .fetch_one(conn)
        .await
}

pub async fn insert_origin_codes(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into origin_codes (name) values
             ('web-homepage-signup'), ('fb-lead-ad-2026q3'), ('petition-clean-water'),
             ('ngp-import-2025'), ('event-town-hall-oct'), ('google-search-brand')",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// `contacts` contacts: names drawn from short lists, e-mails unique by construction, created dates spread over
/// three years.
pub async fn insert_contacts(conn: &mut PgConnection, contacts: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "with first_names as (select array['Maria','James','Aisha','Robert','Chen','Linda','Diego','Patricia',
                                            'Kwame','Susan','Noah','Fatima','David','Grace','Luis','Emily'] a),
              last_names as (select array['Garcia','Johnson','Okafor','Smith','Nguyen','Williams','Patel',
                                           'Brown','Martinez','Davis','Kim','Lopez','Wilson','Moore'] a),
              codes as (select array_agg(id order by id) a from origin_codes)
         insert into contacts (email, first_name, last_name, phone, origin_code_id, subscription, created)
         select lower(f.a[1 + i % 16]) || '.' || lower(l.a[1 + (i / 16) % 14]) || i || '@example.org',
                f.a[1 + i % 16], l.a[1 + (i / 16) % 14],
                case when i % 3 = 0 then '555' || lpad((i % 10000000)::text, 7, '0') end,
                c.a[1 + (i * 7) % cardinality(c.a)],
                case when i % 50 = 0 then 'unsubscribed' when i % 97 = 0 then 'bounced' else 'subscribed' end,
                now() - make_interval(hours => ((i * 37) % (24 * 1095))::int)
         from generate_series(1, $1) i, first_names f, last_names l, codes c",
    )
    .bind(contacts)
    .execute(conn)
    .await?;
    Ok(())
}

/// Two query lists by origin code and an upload list holding the town hall's contacts.
pub async fn insert_lists(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into crm_lists (name, kind, origin_code_ids)
         select 'Web and search sign-ups', 'query', array_agg(id) from origin_codes
             where name in ('web-homepage-signup', 'google-search-brand')
         union all
         select 'Clean water petition', 'query', array_agg(id) from origin_codes
             where name = 'petition-clean-water'
         union all
         select 'Town hall RSVPs', 'upload', '{}'::bigint[]",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into crm_list_members (list_id, contact_id)
         select l.id, c.id from crm_lists l
         join contacts c on c.origin_code_id = (select id from origin_codes where name = 'event-town-hall-oct')
         where l.name = 'Town hall RSVPs'",
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// How many forms the client has: forms are seeded on their own, so a demo client made before forms existed
/// gets them too.
pub async fn forms_count(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from forms")
        .fetch_one(conn)
        .await
}

/// Two public forms with a history of views and signups from contacts who arrived through them.
pub async fn insert_forms(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into forms (name, origin_code_id, redirect_url, body_html, enabled, view_count)
         select 'Clean water petition', id, 'https://example.org/thank-you',
                '<h2>Stand up for clean water</h2><p>Add your name to the petition.</p>' ||
                '<form><label for=\"email\">Email</label> <input type=\"email\" id=\"email\" name=\"email\" required>' ||
                ' <button type=\"submit\">Sign the petition</button></form>',
                true, 4120
         from origin_codes where name = 'petition-clean-water'
         union all
         select 'Town hall RSVP', id, null,
                '<h2>Join us at the town hall</h2><form><input type=\"email\" name=\"email\" ' ||
                'placeholder=\"you@example.org\" required> <button type=\"submit\">RSVP</button></form>',
                false, 960
         from origin_codes where name = 'event-town-hall-oct'",
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into external_signups (form_id, contact_id, origin_code_id, email, referrer, created)
         select f.id, c.id, c.origin_code_id, c.email, 'https://example.org/petition', c.created
         from forms f join contacts c on c.origin_code_id = f.origin_code_id
         where c.id % 4 = 0",
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn roles_count(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from roles")
        .fetch_one(conn)
        .await
}

/// Three roles (the last with `admin_permissions`) and two of the client's own users, both with `password_hash`:
/// one enabled with the Analyst role, one who registered and verified their e-mail and now waits for an
/// administrator.
pub async fn insert_people(
    conn: &mut PgConnection,
    admin_permissions: &[&str],
    password_hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "insert into roles (name, permissions) values
           ('Analyst', '{pageContributions,pageSegments,pageContactOriginCodes,pageContributionSourceCodes,pagePlanning,pagePerformance,pageReports}'),
           ('Contacts manager', '{pageContacts,pageContactOriginCodes}'),
           ('Client administrator', $1)",
    )
    .bind(admin_permissions)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into client_users (email, password_hash, first_name, last_name, phone, two_factor_method,
                                   email_verified, enabled)
         values ('dana.field@demo-campaign.example.org', $1, 'Dana', 'Field', '2025550143', 'email', now(), true),
                ('sam.new@demo-campaign.example.org', $1, 'Sam', 'New', '', 'email', now(), false)",
    )
    .bind(password_hash)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "insert into user_roles (user_kind, user_id, role_id)
         select 'client', u.id, r.id from client_users u, roles r
         where u.email = 'dana.field@demo-campaign.example.org' and r.name = 'Analyst'",
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn senders_count(conn: &mut PgConnection) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("select count(*) from senders")
        .fetch_one(conn)
        .await
}

/// A sender, two templates, a mailing sent ten days ago with its recipients and their opens, clicks and
/// unsubscribes, a draft and one confirmed for later.
pub async fn insert_mailings(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    let statements = [
        "insert into senders (name, from_address, reply_to)
         values ('Friends of the Demo Campaign', 'team@demo-campaign.example.org', 'reply@demo-campaign.example.org')",
        "insert into mailing_templates (name, body_html) values
           ('Monthly newsletter', '<h1>This month on the campaign</h1><p>Hi {{First.Name}},</p><p>Here is what your support made possible.</p><p><a href=\"https://example.org/donate\">Chip in $10</a></p>'),
           ('Urgent appeal', '<p>{{First.Name}}, the deadline is midnight.</p><p><a href=\"https://example.org/donate?refcode=urgent\">Give now</a></p>')",
        "insert into mailings (name, subject_line, sender_id, send_time, list_id, body_html, is_draft, send_attempt, delivery)
         select 'October newsletter', 'What your support made possible', s.id, now() - interval '10 days', l.id,
                t.body_html, false, now() - interval '10 days', 'done'
         from senders s, crm_lists l, mailing_templates t
         where l.name = 'Web and search sign-ups' and t.name = 'Monthly newsletter'
         union all
         select 'November appeal', 'Midnight deadline', s.id, now() + interval '3 days', l.id, t.body_html, false, null, 'idle'
         from senders s, crm_lists l, mailing_templates t
         where l.name = 'Clean water petition' and t.name = 'Urgent appeal'
         union all
         select 'Year-end draft', 'Draft: year-end', s.id, now() + interval '30 days', l.id, '<p>Hi {{First.Name}}</p>', true, null, 'idle'
         from senders s, crm_lists l where l.name = 'Town hall RSVPs'",
        "insert into mailing_recipients (mailing_id, contact_id, email, first_name, status, sent_at)
         select m.id, c.id, c.email, c.first_name, 'sent', m.send_attempt + (c.id % 600) * interval '1 second'
         from mailings m cross join lateral mailing_audience(m.id) a join contacts c on c.id = a.contact_id
         where m.name = 'October newsletter'",
        "analyze mailing_recipients",
        "insert into mailing_events (mailing_id, contact_id, kind, machine, url, created)
         select r.mailing_id, r.contact_id, 'open', r.contact_id % 9 = 0, null, r.sent_at + interval '2 hours'
         from mailing_recipients r where r.contact_id % 4 = 0
         union all
         select r.mailing_id, r.contact_id, 'click', false, 'https://example.org/donate', r.sent_at + interval '3 hours'
         from mailing_recipients r where r.contact_id % 25 = 0
         union all
         select r.mailing_id, r.contact_id, 'unsubscribe', false, null, r.sent_at + interval '1 day'
         from mailing_recipients r where r.contact_id % 300 = 0",
        "analyze mailing_events",
        "update contacts c set subscription = 'unsubscribed' from mailing_events e
         where e.kind = 'unsubscribe' and e.contact_id = c.id",
    ];
    for statement in statements {
        sqlx::query(statement).execute(&mut *conn).await?;
    }
    Ok(())
}
