import { UploadEditor } from '../features/pictures/components/UploadEditor';
import './UploadPage.css';

/** Price, a drop zone, the preview, Cancel and Release (docs/product.md#upload). */
export default function UploadPage() {
  return <UploadEditor />;
}
