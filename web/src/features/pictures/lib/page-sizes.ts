/*
 * How wide a picture is drawn outside the wall, for `<picture sizes>` (PictureImage.tsx has the wall's; these stay
 * out of the wall's first load): the detail and share pages take the page's width less its 16 px padding a side,
 * up to the 760 px column; the profile picture chooser's squares come three or more a row.
 */
export const PAGE_SIZES = '(max-width: 792px) calc(100vw - 32px), 728px';
export const THUMB_SIZES = '(max-width: 849.98px) 34vw, 180px';
