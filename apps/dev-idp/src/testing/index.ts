export { CookieJar } from './cookie-jar';
export { type SignInThroughDevIdpOptions, type SignInThroughDevIdpResult, signInThroughDevIdp } from './sign-in-flow';
export { makeTestCertificate, type TestCertificate } from './test-certificate';
