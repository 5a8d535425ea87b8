-- One name per list, template and form of a client, compared without case: the audience picker and the template
-- and form menus choose by name, so two "Donors" lists are ambiguous. Names that already collide keep the oldest
-- row's name; the others get " (2)", " (3)" … so the indexes can be built on any existing data.
with ranked as (
    select id, row_number() over (partition by lower(name) order by created, id) as n from crm_lists
)
update crm_lists l set name = l.name || ' (' || r.n || ')' from ranked r where r.id = l.id and r.n > 1;

with ranked as (
    select id, row_number() over (partition by lower(name) order by created, id) as n from mailing_templates
)
update mailing_templates t set name = t.name || ' (' || r.n || ')' from ranked r where r.id = t.id and r.n > 1;

with ranked as (
    select id, row_number() over (partition by lower(name) order by created, id) as n
    from forms where btrim(name) <> ''
)
update forms f set name = f.name || ' (' || r.n || ')' from ranked r where r.id = f.id and r.n > 1;

create unique index crm_lists_name_unique on crm_lists (lower(name));
create unique index mailing_templates_name_unique on mailing_templates (lower(name));
-- A form may still be left unnamed (it shows as "Untitled"); named forms are unique.
create unique index forms_name_unique on forms (lower(name)) where btrim(name) <> '';
