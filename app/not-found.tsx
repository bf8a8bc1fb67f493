import Link from "next/link";

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-2 px-4 text-center">
      <h1 className="text-lg font-semibold">Page not found</h1>
      <p className="text-sm text-muted">The page does not exist, or the object it showed was deleted.</p>
      <Link href="/tools/catalog" className="text-sm font-medium text-accent underline">
        Back to the catalog
      </Link>
    </main>
  );
}
