-- A form's look on its public page (issue 17, item 17): null means the default style. The api validates the
-- values; the checks keep anything written another way just as safe to put into a style or an <img src>.
alter table forms
    add column primary_color text check (primary_color ~ '^#[0-9a-fA-F]{6}$'),
    add column background_color text check (background_color ~ '^#[0-9a-fA-F]{6}$'),
    add column logo_url text check (logo_url ~ '^(https://|data:image/(png|jpeg|gif|webp);base64,)'),
    add column button_text text check (length(button_text) between 1 and 100);
