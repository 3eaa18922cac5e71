// Certification (/users/levelauth): the caller's own only; the rules live in domain/certification.ts.
import { certificationState, submitCertification } from '../../api-contract/certification.ts';
import { certificationStateOf, submitCertification as submit } from '../domain/certification.ts';
import type { RouteModule } from './route-module.ts';

export const certificationRoutes: RouteModule = ({ route }) => {
  route(submitCertification, (input, { db, caller, clock }) =>
    db.transaction((tx) => submit(tx, caller.userId, input, clock.now())),
  );
  route(certificationState, (_input, { db, caller }) => certificationStateOf(db, caller.userId));
};
