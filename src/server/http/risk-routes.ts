// The options' risk figure (api-contract/risk.ts): public, the same for everyone; the rule lives in
// domain/risk-figure.ts.
import { riskFigure } from '../../api-contract/risk.ts';
import { currentRiskFigure } from '../domain/risk-figure.ts';
import type { RouteModule } from './route-module.ts';

export const riskRoutes: RouteModule = ({ route }) => {
  route(riskFigure, (_input, { db, clock }) => currentRiskFigure(db, clock.now()));
};
