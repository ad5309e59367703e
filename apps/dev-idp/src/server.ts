import { createDevIdp } from './dev-idp';
import { devIdpOptionsFromEnv } from './env';

try {
  const idp = createDevIdp(devIdpOptionsFromEnv(process.env));
  const issuer = await idp.listen();
  process.stdout.write(`dev-idp: OpenID provider at ${issuer}/.well-known/openid-configuration\n`);
  const stop = () => idp.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
