/** The treasure chest of the lootboxes page; its lid lifts and it glows while a box opens. */
export function Chest({ opening }: { opening: boolean }) {
  return (
    <svg
      className={`chest${opening ? ' chest--opening' : ''}`}
      viewBox="0 0 120 100"
      width="120"
      height="100"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <linearGradient id="chest-wood" x1="0" x2="0" y1="0" y2="1">
          <stop offset="0" stopColor="#b4692c" />
          <stop offset="1" stopColor="#7a3f16" />
        </linearGradient>
        <radialGradient id="chest-glow">
          <stop offset="0" stopColor="#ffe38a" stopOpacity="0.95" />
          <stop offset="1" stopColor="#ffd23f" stopOpacity="0" />
        </radialGradient>
      </defs>
      <ellipse className="chest__glow" cx="60" cy="46" rx="56" ry="34" fill="url(#chest-glow)" />
      <rect x="14" y="46" width="92" height="46" rx="6" fill="url(#chest-wood)" stroke="#4a2508" strokeWidth="3" />
      <rect x="14" y="60" width="92" height="8" fill="#e0a526" stroke="#4a2508" strokeWidth="2" />
      <rect x="28" y="46" width="8" height="46" fill="#e0a526" stroke="#4a2508" strokeWidth="2" />
      <rect x="84" y="46" width="8" height="46" fill="#e0a526" stroke="#4a2508" strokeWidth="2" />
      <g className="chest__lid">
        <path
          d="M14 48 V34 Q14 14 60 14 Q106 14 106 34 V48 Z"
          fill="url(#chest-wood)"
          stroke="#4a2508"
          strokeWidth="3"
        />
        <rect x="28" y="16" width="8" height="32" fill="#e0a526" stroke="#4a2508" strokeWidth="2" />
        <rect x="84" y="16" width="8" height="32" fill="#e0a526" stroke="#4a2508" strokeWidth="2" />
      </g>
      <rect x="52" y="54" width="16" height="20" rx="3" fill="#ffd23f" stroke="#4a2508" strokeWidth="2" />
      <circle cx="60" cy="62" r="3" fill="#4a2508" />
    </svg>
  );
}
