/** Says once, at the top of the run, which engines the API tests run on. */
export default function setup() {
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write(
      '\nPostgreSQL skipped: TEST_DATABASE_URL is not set, so the API tests run on SQLite only (.ci/run sets it).\n\n',
    );
  }
}
