-- Which contacts a CRM list holds, written once. A query list selects contacts by origin code; an upload list
-- names its members. Filters on list_id reach both branches, so a single list's read uses the indexes.
create view crm_list_contacts as
select l.id as list_id, c.id as contact_id
from crm_lists l
join contacts c on c.origin_code_id = any (l.origin_code_ids)
where l.kind = 'query'
union all
select m.list_id, m.contact_id
from crm_list_members m
join crm_lists l on l.id = m.list_id and l.kind = 'upload';
