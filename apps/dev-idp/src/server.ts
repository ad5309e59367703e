import { createDevIdp } from './dev-idp';
import { devIdpOptionsFromEnv } from './env-options';

try {
  const idp = createDevIdp(devIdpOptionsFromEnv(process.env));
  const issuer = await idp.listen();
  process.stdout.write(`dev-idp: OpenID provider at ${issuer}/.well-known/openid-configuration\n`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
