import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { THEME_BOOT_SCRIPT } from "@/components/layout/theme";
import { Providers } from "@/components/providers";
import { nonceOf } from "@/server/http/security-headers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Quartermaster", template: "%s · Quartermaster" },
  description: "The control plane for your organization's AI-agent tools and memory.",
  icons: { icon: "/favicon.svg" },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Scripts run only with this request's nonce (server/http/security-headers.ts); reading
  // it makes every page render per request, which a signed-in console does anyway.
  const nonce = nonceOf((await headers()).get("content-security-policy"));
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Sets the theme class before first paint, so a dark-mode user never sees a white flash. */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body className="min-h-screen font-sans antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
