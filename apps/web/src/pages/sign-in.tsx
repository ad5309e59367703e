/** Sign-in goes through the configured identity provider, then comes back here. One card, in the visual system. */
export function SignInPage({ notice }: { notice?: string | undefined }) {
  return (
    <main className="narrow">
      <div className="sign-in">
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
      </div>
    </main>
  );
}
