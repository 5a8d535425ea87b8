-- Writing a segment's members: at 200,000 members the row-by-row foreign-key check against `segments` took a
-- third of the compute (one trigger call per member), and the index on contact_id another share, while nothing
-- reads members by contact alone (rules and audiences look them up by segment and contact: the primary key).
-- Members are written only by the compute, with the segment's row locked, so the key cannot dangle on insert; a
-- deleted segment takes its members with it through one statement-level trigger instead of the cascade.
alter table segment_members drop constraint segment_members_segment_id_fkey;
drop index segment_members_contact_idx;

create function segment_members_of_deleted_segments() returns trigger
language plpgsql set search_path from current as $$
begin
    delete from segment_members m using old_segments o where m.segment_id = o.id;
    return null;
end
$$;
create trigger segments_deleted after delete on segments
    referencing old table as old_segments for each statement execute function segment_members_of_deleted_segments();
