/** Sign-in goes through the configured identity provider, then comes back here. */
export function SignInPage({ notice }: { notice?: string | undefined }) {
  return (
    <main className="narrow">
      <h1>Renamer</h1>
      <p>Search-engine-friendly names for your photos, in bulk.</p>
      {notice && (
        <p role="alert" className="problem">
          {notice}
        </p>
      )}
      <a className="button" href="/api/auth/login?returnTo=/">
        Sign in
      </a>
    </main>
  );
}
