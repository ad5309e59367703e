export { type DevIdentity, subjectForEmail } from './accounts';
export { createDevIdp, type DevIdp, type DevIdpOptions } from './dev-idp';
export { DEFAULT_DEV_IDP_PORT, devIdpOptionsFromEnv } from './env';
export type { DevIdpClient } from './provider';
