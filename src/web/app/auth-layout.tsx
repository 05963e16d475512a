import { Outlet } from 'react-router';
import { Logo } from '@web/components/brand';

/** Centred layout of the sign-in screens. */
export function AuthLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-brand-50 to-slate-50">
      <header className="mx-auto flex h-16 w-full max-w-6xl items-center px-4">
        <Logo />
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-8 sm:py-14">
        <Outlet />
      </main>
    </div>
  );
}
