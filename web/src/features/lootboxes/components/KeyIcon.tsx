/** A key, drawn rather than an emoji so it shows on systems without an emoji font. */
export function KeyIcon({ size = 18 }: { size?: number }) {
  return (
    <svg className="key-icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M7.5 14.5a4.5 4.5 0 1 1 4.24-6H22v3h-2v3h-3v-3h-5.26a4.5 4.5 0 0 1-4.24 3zm0-2.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4z"
        fill="currentColor"
      />
    </svg>
  );
}
