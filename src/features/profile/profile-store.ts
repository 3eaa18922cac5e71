// Profile actions: edit the profile, change the avatar (downscaled here, in the browser), change
// the login and payment passwords, send codes; plus the small readers the profile pages share
// (the certification status Mine shows comes with the user info).
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import * as v from 'valibot';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  ChangePasswordInput,
  ChangePayPasswordInput,
  EditProfileInput,
  changePassword,
  changePayPassword,
  editAvatar,
  editProfile,
  type UserInfo,
} from '../../api-contract/account.ts';
import { texts } from '../../api-contract/texts.ts';
import { AREA_CODE } from '../../api-contract/constants.ts';
import { api } from '../../lib/api.ts';
import { refreshUser } from '../../lib/account.ts';
import { intlLocale, currentLocale } from '../../lib/i18n.ts';
import { session } from '../../lib/session.ts';
import { firstError } from '../../lib/validate.ts';
import { uploadPicture } from '../../lib/images.ts';

export const DEFAULT_AVATAR = '/favicon.svg';
/** Avatars are shown at most 120 px wide; 512 px keeps them sharp on 3× screens and small on the wire. */
export const AVATAR_MAX_SIDE = 512;
export const AVATAR_JPEG_QUALITY = 0.85;

/**
 * The signed-in user as the page renders it. `refresh` asks the server again in the background
 * (also done whenever no user is cached); a failure keeps the cached user, and a lost session
 * is handled by api() itself, so nothing more is shown here.
 */
export function useUser({ refresh = false }: { refresh?: boolean } = {}) {
  const { token, user } = useSnapshot(session);
  useEffect(() => {
    if (token && (refresh || !session.user)) refreshUser({ loading: false }).catch(() => undefined);
  }, [token, refresh]);
  return { token, user };
}

export const savedText = () => i18n._(texts.saved);

/** The currency's name in the app language, e.g. "Thai Baht"; the code when Intl has none. */
export function currencyName(code: string): string {
  try {
    return new Intl.DisplayNames([intlLocale(currentLocale())], { type: 'currency' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A stored mobile number as shown: E.164 with the default area code set apart (`+66 812345678`); another country's as
 * stored; one stored before numbers were E.164 (digits typed behind "+66") after the area code.
 */
export function shownPhone(stored: string): string {
  if (stored.startsWith(`+${AREA_CODE}`)) return `+${AREA_CODE} ${stored.slice(AREA_CODE.length + 1)}`;
  return stored.startsWith('+') ? stored : `+${AREA_CODE} ${stored}`;
}

/** Where a payment password reset code goes: the account's phone, else its e-mail. */
export function resetTarget(
  user: Pick<UserInfo, 'phone' | 'email'> | null,
): { channel: 'sms' | 'email'; address: string } | null {
  if (user?.phone) return { channel: 'sms', address: user.phone };
  if (user?.email) return { channel: 'email', address: user.email };
  return null;
}

type EditProfile = v.InferInput<typeof EditProfileInput>;

/** The first rule the edit breaks (translated), or null. */
export const profileProblem = (input: EditProfile) => firstError(EditProfileInput, input);

export async function saveProfile(input: EditProfile): Promise<void> {
  session.user = await api(editProfile, v.parse(EditProfileInput, input));
}

/** Downscales, uploads (multipart, field `image`) and makes the picture the avatar. */
export async function saveAvatar(file: File): Promise<void> {
  const url = await uploadPicture(file, AVATAR_MAX_SIDE, AVATAR_JPEG_QUALITY);
  session.user = await api(editAvatar, { userimg: url });
}

type ChangePassword = v.InferInput<typeof ChangePasswordInput>;

export const passwordProblem = (input: ChangePassword) => firstError(ChangePasswordInput, input);

/** Every session ends on a login password change; the answer is this device's new token. */
export async function changeLoginPassword(input: ChangePassword): Promise<void> {
  const { token } = await api(changePassword, input);
  session.token = token;
}

type ChangePayPassword = v.InferInput<typeof ChangePayPasswordInput>;

/** The old password is required when modifying (the schema alone would accept its absence). */
export function payPasswordProblem(input: ChangePayPassword, needsOld: boolean): string | null {
  if (needsOld && !input.oldpaypass?.trim()) return i18n._(texts.enterOldPassword);
  return firstError(ChangePayPasswordInput, input);
}

export async function changePaymentPassword(input: ChangePayPassword): Promise<void> {
  session.user = await api(changePayPassword, input);
}

/** The one-line certification status the Mine page shows, from the cached user info (no extra call). */
export function certificationSummary(
  user: Pick<UserInfo, 'verification' | 'advanced_verification'>,
): MessageDescriptor {
  if (user.verification !== 'verified') {
    if (user.verification === 'review') return msg`Under review`;
    return user.verification === 'rejected' ? msg`Rejected` : msg`Not certified`;
  }
  switch (user.advanced_verification) {
    case 'verified':
      return msg`Advanced verified`;
    case 'review':
      return msg`Advanced under review`;
    case 'rejected':
      return msg`Advanced rejected`;
    default:
      return msg`Primary verified`;
  }
}
