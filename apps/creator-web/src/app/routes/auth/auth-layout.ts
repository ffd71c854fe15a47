/** The centred page the sign-in and password pages share. */
export const main =
  'flex min-h-full flex-col items-center justify-center gap-6 bg-gradient-to-b from-brand-50 to-canvas px-6 py-12';
