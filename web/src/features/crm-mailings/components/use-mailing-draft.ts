import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Mailing, MailingInput, VariantInput } from '@/api/gen/model';
import { fromDateTimeLocal, toDateTimeLocal } from '../utils';
import { variantsOf } from './variants-editor';

/** What the mailing editor holds while it is open: the fields, what is missing, and the input to save. */
export function useMailingDraft(mailing: Mailing | null) {
  const [name, setName] = useState(mailing?.name ?? '');
  const [senderId, setSenderId] = useState(mailing?.senderId != null ? String(mailing.senderId) : '');
  const [subjectLine, setSubjectLine] = useState(mailing?.subjectLine ?? '');
  const [sendTime, setSendTime] = useState(toDateTimeLocal(mailing?.sendTime));
  const [search] = useSearchParams();
  const askedSegment = !mailing && /^\d+$/.test(search.get('segment') ?? '') ? (search.get('segment') ?? '') : '';
  const [listId, setListId] = useState(mailing?.listId != null ? String(mailing.listId) : '');
  const [segmentId, setSegmentId] = useState(mailing?.segmentId != null ? String(mailing.segmentId) : askedSegment);
  const [audienceKind, setAudienceKind] = useState<'list' | 'segment'>(
    mailing?.segmentId != null || askedSegment ? 'segment' : 'list',
  );
  const [suppressions, setSuppressions] = useState<string[]>(
    mailing?.suppressions.map((s) => `${s.kind}:${s.id}`) ?? [],
  );
  const [previewText, setPreviewText] = useState(mailing?.previewText ?? '');
  const [variants, setVariants] = useState<VariantInput[]>(variantsOf(mailing));
  const [bodyHtml, setBodyHtml] = useState(mailing?.bodyHtml ?? '');
  const [respectCap, setRespectCap] = useState(mailing?.respectCap ?? true);

  const sendTimeIso = fromDateTimeLocal(sendTime);
  const missing = {
    name: name.trim() === '',
    senderId: senderId === '',
    subjectLine: subjectLine.trim() === '',
    sendTime: sendTimeIso === null,
    listId: audienceKind === 'list' ? listId === '' : segmentId === '',
  };
  const setupValid = !Object.values(missing).some(Boolean);

  const input = (isDraft: boolean): MailingInput => ({
    name: name.trim(),
    subjectLine: subjectLine.trim(),
    senderId: Number(senderId),
    sendTime: sendTimeIso ?? '',
    listId: audienceKind === 'list' ? Number(listId) : null,
    segmentId: audienceKind === 'segment' ? Number(segmentId) : null,
    suppressionListIds: suppressions.filter((s) => s.startsWith('list:')).map((s) => Number(s.slice(5))),
    suppressionSegmentIds: suppressions.filter((s) => s.startsWith('segment:')).map((s) => Number(s.slice(8))),
    previewText,
    variants,
    bodyHtml,
    isDraft,
    respectCap,
  });

  return {
    name,
    setName,
    senderId,
    setSenderId,
    subjectLine,
    setSubjectLine,
    sendTime,
    setSendTime,
    listId,
    setListId,
    segmentId,
    setSegmentId,
    audienceKind,
    setAudienceKind,
    suppressions,
    setSuppressions,
    previewText,
    setPreviewText,
    variants,
    setVariants,
    bodyHtml,
    setBodyHtml,
    respectCap,
    setRespectCap,
    sendTimeIso,
    missing,
    setupValid,
    input,
  };
}

export type MailingDraft = ReturnType<typeof useMailingDraft>;
