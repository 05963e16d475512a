import { infiniteQueryOptions } from '@tanstack/react-query';
import type { ClassroomView, PostInput, UploadedFile } from '@shared/classroom-schemas';
import { api } from '@web/lib/api';
import { queryKeys } from '@web/lib/query-keys';

const base = (courseId: string, sessionId: string) => `/api/courses/${courseId}/sessions/${sessionId}/classroom`;

/** GET the classroom: its first page, or the posts older than `before`. */
export const getClassroom = (courseId: string, sessionId: string, before?: string) =>
  api<ClassroomView>(`${base(courseId, sessionId)}${before ? `?before=${encodeURIComponent(before)}` : ''}`);

/** The classroom's pages (a realtime event refetches them all). */
export const classroomQuery = (courseId: string, sessionId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.classroom(courseId, sessionId),
    queryFn: ({ pageParam }) => getClassroom(courseId, sessionId, pageParam || undefined),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const uploadUrl = (courseId: string, sessionId: string) => `${base(courseId, sessionId)}/files`;

export const createPost = (courseId: string, sessionId: string, input: PostInput) =>
  api<{ id: string }>(`${base(courseId, sessionId)}/posts`, { method: 'POST', body: input });

export const setPinned = (courseId: string, sessionId: string, postId: string, pinned: boolean) =>
  api<{ message: string }>(`${base(courseId, sessionId)}/posts/${postId}`, { method: 'PATCH', body: { pinned } });

/** The educator changes a post's text. */
export const editPost = (courseId: string, sessionId: string, postId: string, body: string) =>
  api<{ message: string }>(`${base(courseId, sessionId)}/posts/${postId}`, { method: 'PATCH', body: { body } });

/** The educator deletes a post (its replies, reports and files go with it). */
export const deletePost = (courseId: string, sessionId: string, postId: string) =>
  api<{ message: string }>(`${base(courseId, sessionId)}/posts/${postId}`, { method: 'DELETE' });

export const addReply = (courseId: string, sessionId: string, postId: string, body: string) =>
  api<{ id: string }>(`${base(courseId, sessionId)}/posts/${postId}/replies`, { method: 'POST', body: { body } });

export const hideReply = (courseId: string, sessionId: string, replyId: string, hidden: boolean) =>
  api<{ message: string }>(`${base(courseId, sessionId)}/replies/${replyId}/hide`, { method: 'POST', body: { hidden } });

export const reportPost = (courseId: string, sessionId: string, postId: string, reason: string) =>
  api<{ message: string }>(`${base(courseId, sessionId)}/posts/${postId}/report`, { method: 'POST', body: { reason } });

export const setAccess = (courseId: string, sessionId: string, userId: string, access: 'removed' | 'restored') =>
  api<{ message: string }>(`${base(courseId, sessionId)}/access/${userId}`, { method: 'PUT', body: { access } });

export type { UploadedFile };
