// Spec §7: every answer is { ret, msg, data }; lists are read under data.lists.
export const RET_OK = 1;
export const RET_FAIL = 0;
export const RET_TOKEN_INVALID = -1;
export type Ret = typeof RET_OK | typeof RET_FAIL | typeof RET_TOKEN_INVALID;

export interface Envelope<T = unknown> {
  ret: Ret;
  msg: string;
  data: T;
}

export interface Paged<T> {
  lists: T[];
  page: number;
  total: number;
}

/** Request headers of the wire format. */
export const TOKEN_HEADER = 'token';
export const LANG_HEADER = 'lang';
export const IDEMPOTENCY_HEADER = 'idempotency-key';
