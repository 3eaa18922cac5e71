// The operator behind a console request: the `token` header names an operator's session (a
// customer's token is none here), resolved once per request and shared by the route and the
// picture entry point (upload-routes.ts).
import type { FastifyRequest } from 'fastify';
import { TOKEN_HEADER } from '../../api-contract/envelope.ts';
import { operatorOfToken, type OperatorCaller } from '../domain/operators.ts';
import { plausibleToken } from '../domain/sessions.ts';
import type { Services } from './context.ts';

const operators = new WeakMap<FastifyRequest, Promise<OperatorCaller | null>>();

export function consoleOperatorOf(
  { db, clock, operatorConsole }: Pick<Services, 'db' | 'clock' | 'operatorConsole'>,
  request: FastifyRequest,
): Promise<OperatorCaller | null> {
  let operator = operators.get(request);
  if (!operator) {
    const header = request.headers[TOKEN_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    operator = plausibleToken(token)
      ? operatorOfToken(db, token, clock.now(), operatorConsole.idleMs)
      : Promise.resolve(null);
    operators.set(request, operator);
  }
  return operator;
}
