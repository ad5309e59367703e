import { closeOnSignals, createLogger, exitOnBootFailure } from '@renamer/runtime';
import { createDevIdp } from './dev-idp';
import { loadDevIdpEnv } from './env';

try {
  const { nodeEnv, logLevel, options } = loadDevIdpEnv(process.env);
  const logger = createLogger('dev-idp', logLevel, nodeEnv);
  const idp = createDevIdp(options);
  const issuer = await idp.listen();
  logger.info(`OpenID provider at ${issuer}/.well-known/openid-configuration`);
  closeOnSignals(logger, [() => idp.close()]);
} catch (error) {
  exitOnBootFailure('dev-idp', error);
}
