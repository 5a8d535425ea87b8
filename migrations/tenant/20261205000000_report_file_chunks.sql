-- A report file's bytes in chunks of about 1 MB (issue 28): the job that builds a file and the request that serves
-- it each hold one chunk at a time, not the whole file, however many donors a LYBUNT list names.
create table report_file_chunks (
    file_id bigint not null references report_files (id) on delete cascade,
    seq integer not null,
    bytes bytea not null,
    primary key (file_id, seq)
);

insert into report_file_chunks (file_id, seq, bytes) select id, 0, content from report_files;
alter table report_files drop column content;
